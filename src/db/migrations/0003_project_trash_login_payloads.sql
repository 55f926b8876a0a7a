CREATE TABLE `project_trash` (
	`project_id` integer PRIMARY KEY NOT NULL,
	`deleted_by` integer NOT NULL,
	`deleted_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `project_trash_deleted_idx` ON `project_trash` (`deleted_at`);--> statement-breakpoint
CREATE TABLE `used_login_payloads` (
	`hash` text PRIMARY KEY NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `used_login_expires_idx` ON `used_login_payloads` (`expires_at`);