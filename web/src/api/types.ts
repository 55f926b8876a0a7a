// Shapes of the API answers the app reads (API.md / EXTENSIONS.md); only the fields it uses.

export interface User {
  id: number;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  photoUrl: string | null;
}

export interface AuthConfig {
  setUp: boolean;
  loginMode: "dev_login" | "messenger_widget" | null;
  botUsername: string | null;
}

export interface ProjectListItem {
  id: number;
  name: string;
  description?: string | null;
  createdAt: string;
  updatedAt: string;
  ownerId: number | null;
  userDatabaseEnabled: number;
  sortOrder: number;
  adminIds: string | null;
  nodeCount: number;
  sheetsCount: number;
  isArchivedForMe: boolean | number;
}
