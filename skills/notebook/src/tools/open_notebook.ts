import { loadNotes, NAMESPACE, type Capabilities } from './store';

export default async function open_notebook(input: { name: string }, capabilities: Capabilities) {
  const storage = capabilities.storage.use(NAMESPACE);
  const existing = await storage.get(`/notebooks/${input.name}.json`);
  if (existing === undefined || existing === null) await storage.put(`/notebooks/${input.name}.json`, []);
  await capabilities.token?.sign(NAMESPACE, { notebook: input.name });
  return { notebook: input.name, created: existing == null, noteCount: (await loadNotes(storage, input.name)).length };
}
