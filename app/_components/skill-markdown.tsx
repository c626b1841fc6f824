import 'server-only';
// A skill's readme or changelog, rendered to HTML on the server's render thread
// (lib/render): up to 256 KB of markdown took the event loop seconds per view in React. The
// HTML comes from react-markdown with no raw HTML and safe links only (every character of
// the text escaped by React), so it is inserted as it is. Too busy or too slow: the
// markdown source is shown as plain text.
import { renderMarkdown } from '@/lib/render';

export async function SkillMarkdown({ source }: { source: string }) {
  const html = await renderMarkdown(source);
  if (html === null) {
    return (
      <div className="prose-skill" data-markdown="plain">
        <pre className="whitespace-pre-wrap">{source}</pre>
      </div>
    );
  }
  return <div className="prose-skill" dangerouslySetInnerHTML={{ __html: html }} />;
}
