CREATE TABLE `hooks` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` integer NOT NULL,
	`node_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`rotated_at` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hooks_project_node_idx` ON `hooks` (`project_id`,`node_id`);