// The storage and token capabilities as the notebook tools use them.
export type Note = { id: string; title: string; body: string; tags?: string[]; createdAt: string };
export type Storage = { get(key: string): Promise<unknown>; put(key: string, value: unknown): Promise<void> };
export type Capabilities = {
  storage: { use(namespace: string): Storage };
  token?: { sign(issuer: string, claims: Record<string, string>): Promise<string> };
  tokens?: Record<string, { claims: Record<string, string> } | undefined>;
};

export const NAMESPACE = '@skillyard/notebook';

export function openNotebookName(capabilities: Capabilities): string | null {
  return capabilities.tokens?.[NAMESPACE]?.claims.notebook ?? null;
}

export async function loadNotes(storage: Storage, notebook: string): Promise<Note[]> {
  const v = await storage.get(`/notebooks/${notebook}.json`);
  return Array.isArray(v) ? (v as Note[]) : [];
}
