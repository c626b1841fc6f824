import { loadNotes, NAMESPACE, openNotebookName, type Capabilities } from './store';

export default async function list_notes(input: { tag?: string; contains?: string }, capabilities: Capabilities) {
  const storage = capabilities.storage.use(NAMESPACE);
  const notebook = await openNotebookName(storage);
  if (!notebook) throw new Error('no notebook is open: call open_notebook first');
  const needle = input.contains?.toLowerCase();
  const notes = (await loadNotes(storage, notebook)).filter(
    (n) => (!input.tag || n.tags?.includes(input.tag)) && (!needle || `${n.title}\n${n.body}`.toLowerCase().includes(needle)),
  );
  return { notes };
}
