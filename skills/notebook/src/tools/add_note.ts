import { loadNotes, NAMESPACE, openNotebookName, type Capabilities, type Note } from './store';

export default async function add_note(input: { note: Omit<Note, 'id' | 'createdAt'> }, capabilities: Capabilities) {
  const storage = capabilities.storage.use(NAMESPACE);
  const notebook = await openNotebookName(storage);
  if (!notebook) throw new Error('no notebook is open: call open_notebook first');
  const notes = await loadNotes(storage, notebook);
  const createdAt = new Date().toISOString();
  const note: Note = { ...input.note, id: `${notes.length + 1}-${createdAt}`, createdAt };
  await storage.put(`/notebooks/${notebook}.json`, [note, ...notes]);
  return { note };
}
