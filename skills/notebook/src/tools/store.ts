// The storage and token capabilities as the notebook tools use them. The notebook token
// (issuer @skillyard/notebook, claim `notebook`) only says that a notebook is open; which
// one is kept in the caller's own storage.
export type Note = { id: string; title: string; body: string; tags?: string[]; createdAt: string };
export type Storage = { get(key: string): Promise<unknown>; put(key: string, value: unknown): Promise<void> };
export type Capabilities = {
  storage: { use(namespace: string): Storage };
  token?: { mint(req: { issuer: string; claims: string[]; expiresAt?: string | null }): Promise<unknown> };
};

export const NAMESPACE = '@skillyard/notebook';
const CURRENT = '/current';

export async function openNotebookName(storage: Storage): Promise<string | null> {
  const name = await storage.get(CURRENT);
  return typeof name === 'string' ? name : null;
}

export async function setOpenNotebook(storage: Storage, name: string): Promise<void> {
  await storage.put(CURRENT, name);
}

export async function loadNotes(storage: Storage, notebook: string): Promise<Note[]> {
  const v = await storage.get(`/notebooks/${notebook}.json`);
  return Array.isArray(v) ? (v as Note[]) : [];
}
