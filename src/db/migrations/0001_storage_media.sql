CREATE TABLE `media_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`storage_config_id` text,
	`object_key` text NOT NULL,
	`kind` text NOT NULL,
	`file_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`messenger_file_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `media_project_idx` ON `media_files` (`project_id`);--> statement-breakpoint
CREATE INDEX `media_storage_idx` ON `media_files` (`storage_config_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `media_key_idx` ON `media_files` (`storage_config_id`,`object_key`);--> statement-breakpoint
CREATE TABLE `storage_configs` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`backend` text NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`is_active` integer DEFAULT 0 NOT NULL,
	`read_only` integer DEFAULT 0 NOT NULL,
	`secrets` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
