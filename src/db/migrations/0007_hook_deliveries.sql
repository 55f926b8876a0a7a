CREATE TABLE `hook_deliveries` (
	`hook_id` text NOT NULL,
	`key` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`hook_id`, `key`),
	FOREIGN KEY (`hook_id`) REFERENCES `hooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hook_deliveries_expires_idx` ON `hook_deliveries` (`expires_at`);