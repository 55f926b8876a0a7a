CREATE TABLE `app_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `bot_launches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`token_id` integer NOT NULL,
	`status` text NOT NULL,
	`pid` integer,
	`started_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`stopped_at` text,
	`error_message` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `launches_project_idx` ON `bot_launches` (`project_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `launches_token_idx` ON `bot_launches` (`token_id`);--> statement-breakpoint
CREATE TABLE `bot_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`token_id` integer NOT NULL,
	`level` text NOT NULL,
	`message` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `logs_project_idx` ON `bot_logs` (`project_id`,`id`);--> statement-breakpoint
CREATE INDEX `logs_token_idx` ON `bot_logs` (`token_id`,`id`);--> statement-breakpoint
CREATE TABLE `bot_state` (
	`token_id` integer NOT NULL,
	`chat_id` text NOT NULL,
	`variables` text DEFAULT '{}' NOT NULL,
	`waiting` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`token_id`, `chat_id`),
	FOREIGN KEY (`token_id`) REFERENCES `bot_tokens`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `bot_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`token` text NOT NULL,
	`name` text NOT NULL,
	`bot_id` integer,
	`bot_username` text,
	`bot_first_name` text,
	`photo_path` text,
	`photo_checked_at` text,
	`launch_mode` text DEFAULT 'polling' NOT NULL,
	`catch_all_handlers` integer DEFAULT 0 NOT NULL,
	`protect_content` integer DEFAULT 0 NOT NULL,
	`content_cache` integer DEFAULT 0 NOT NULL,
	`desired_state` text DEFAULT 'stopped' NOT NULL,
	`status` text DEFAULT 'stopped' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tokens_project_idx` ON `bot_tokens` (`project_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_project_token_idx` ON `bot_tokens` (`project_id`,`token`);--> statement-breakpoint
CREATE TABLE `bot_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`token_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`username` text,
	`language_code` text,
	`photo_url` text,
	`first_seen_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`last_seen_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`interaction_count` integer DEFAULT 0 NOT NULL,
	`variables` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`token_id`) REFERENCES `bot_tokens`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bot_users_token_user_idx` ON `bot_users` (`token_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `bot_users_project_idx` ON `bot_users` (`project_id`);--> statement-breakpoint
CREATE TABLE `personal_access_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`scopes` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`last_used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pat_hash_idx` ON `personal_access_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `pat_user_idx` ON `personal_access_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `project_archives` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `project_collaborators` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`invited_by` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collab_user_idx` ON `project_collaborators` (`user_id`);--> statement-breakpoint
CREATE TABLE `project_order` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`sort_order` integer NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `project_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`data` text NOT NULL,
	`nodes_count` integer DEFAULT 0 NOT NULL,
	`commit_message` text,
	`author_id` integer,
	`agent_edit` integer DEFAULT 0 NOT NULL,
	`agent_session_id` text,
	`agent_display_name` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `versions_project_idx` ON `project_versions` (`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`data` text NOT NULL,
	`node_count` integer DEFAULT 0 NOT NULL,
	`sheets_count` integer DEFAULT 0 NOT NULL,
	`bot_token` text,
	`session_id` text,
	`user_database_enabled` integer DEFAULT 1 NOT NULL,
	`restart_on_update` integer DEFAULT 0 NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`admin_ids` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `projects_owner_idx` ON `projects` (`owner_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `template_ratings` (
	`template_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`rating` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`template_id`, `user_id`),
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer,
	`system_key` text,
	`content_hash` text,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`data` text NOT NULL,
	`category` text DEFAULT 'custom' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`is_public` integer DEFAULT 0 NOT NULL,
	`difficulty` text DEFAULT 'easy' NOT NULL,
	`author_name` text,
	`use_count` integer DEFAULT 0 NOT NULL,
	`rating` real DEFAULT 0 NOT NULL,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`featured` integer DEFAULT 0 NOT NULL,
	`language` text DEFAULT 'ru' NOT NULL,
	`complexity` integer DEFAULT 1 NOT NULL,
	`estimated_time` integer DEFAULT 5 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `templates_system_key_idx` ON `templates` (`system_key`);--> statement-breakpoint
CREATE INDEX `templates_owner_idx` ON `templates` (`owner_id`);--> statement-breakpoint
CREATE TABLE `token_env_vars` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text DEFAULT '' NOT NULL,
	`is_secret` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`token_id`) REFERENCES `bot_tokens`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `env_token_key_idx` ON `token_env_vars` (`token_id`,`key`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text,
	`username` text,
	`photo_url` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
