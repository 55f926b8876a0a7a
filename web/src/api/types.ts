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

export interface TokenItem {
  id: number;
  projectId: number;
  name: string;
  botStatus: string;
  status: string;
  botUsername: string | null;
  botFirstName: string | null;
  launchMode: "polling" | "webhook";
  catchAllHandlers: number;
  protectContent: number;
  contentCache: number;
}

export interface BotStatus {
  status: string;
  instance: { botName: string; botUsername: string; tokenId: number; status: string; statusLabel: string; uptime: string };
  userStats?: { total: number; active_24h: number; active_7d: number; new_today: number };
}

export interface MediaItem {
  id: number;
  projectId: number;
  fileName: string;
  mimeType: string;
  size: number;
  url: string;
  storageConfigId: string | null;
  createdAt: string;
}

export interface TemplateItem {
  id: number;
  ownerId: number | null;
  name: string;
  description: string | null;
  /** built-ins: the description in each language of the Studio */
  descriptions?: Record<string, string> | null;
  category: string;
  tags: string[];
  isPublic: number;
  difficulty: string;
  authorName: string | null;
  useCount: number;
  rating: number;
  ratingCount: number;
  featured: number;
  language: string;
  complexity: number;
  estimatedTime: number;
  createdAt: string;
  updatedAt: string;
  data?: ScenarioDoc;
}

export interface ScenarioNode {
  id: string;
  type: string;
  data?: Record<string, unknown>;
}

export interface ScenarioDoc {
  sheets?: { id: string; name: string; nodes?: ScenarioNode[] }[];
}
