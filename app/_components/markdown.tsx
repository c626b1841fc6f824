import ReactMarkdown from 'react-markdown';
import { markdownOptions } from '@/lib/render/markdown-options';

// Markdown rendered in the browser (a run's markdown output). A skill's readme and
// changelog are rendered on the server's render thread instead (skill-markdown.tsx); both
// take the same options (lib/render/markdown-options.ts: no raw HTML, safe links only).
export function Markdown({ source }: { source: string }) {
  return (
    <div className="prose-skill">
      <ReactMarkdown {...markdownOptions}>{source}</ReactMarkdown>
    </div>
  );
}
