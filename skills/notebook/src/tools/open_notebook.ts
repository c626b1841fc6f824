import { loadNotes, NAMESPACE, setOpenNotebook, type Capabilities } from './store';

export default async function open_notebook(input: { name: string }, capabilities: Capabilities) {
  const storage = capabilities.storage.use(NAMESPACE);
  const existing = await storage.get(`/notebooks/${input.name}.json`);
  if (existing === undefined || existing === null) await storage.put(`/notebooks/${input.name}.json`, []);
  await setOpenNotebook(storage, input.name);
  // the token that unlocks add_note and list_notes for this caller
  await capabilities.token?.mint({ issuer: NAMESPACE, claims: ['notebook'], expiresAt: null });
  return { notebook: input.name, created: existing == null, noteCount: (await loadNotes(storage, input.name)).length };
}
