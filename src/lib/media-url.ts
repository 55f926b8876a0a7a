// The public URL of a stored media object: the built-in folder (no config) or a storage config.
// Shared by the media feature and the bot runtime's file-id cache, which key media by this URL.
export function mediaUrlOf(configId: string | null, objectKey: string): string {
  return configId === null ? `/uploads/${objectKey}` : `/uploads/s/${configId}/${objectKey}`;
}
