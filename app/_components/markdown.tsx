import ReactMarkdown from 'react-markdown';

// Skill instructions are untrusted: react-markdown renders no raw HTML, and links are
// limited to http(s) and mailto so no `javascript:` URL reaches the page.
const SAFE_URL = /^(https?:|mailto:|#|\/)/i;

// The readme sits under the page's "Readme" (h2), and a page has one h1: a skill's `#`
// becomes an h3, `##` an h4 and so on (h6 at most), styled by its level in the source.
type Level = 1 | 2 | 3 | 4 | 5 | 6;
function heading(level: Level) {
  const Tag = `h${Math.min(level + 2, 6)}` as 'h3' | 'h4' | 'h5' | 'h6';
  function Heading({ children }: { children?: React.ReactNode }) {
    return <Tag className={`md-h${level}`}>{children}</Tag>;
  }
  return Heading;
}
const headings = { h1: heading(1), h2: heading(2), h3: heading(3), h4: heading(4), h5: heading(5), h6: heading(6) };

export function Markdown({ source }: { source: string }) {
  return (
    <div className="prose-skill">
      <ReactMarkdown
        skipHtml
        urlTransform={(url) => (SAFE_URL.test(url) ? url : '')}
        components={{
          ...headings,
          // a code block that scrolls sideways can be scrolled from the keyboard
          pre: ({ children }) => <pre tabIndex={0}>{children}</pre>,
          a: ({ href, children }) => (
            <a href={href} rel="nofollow noopener noreferrer">
              {children}
            </a>
          ),
          img: ({ alt }) => <span className="text-zinc-500">[image: {alt}]</span>,
        }}
      >
        {source}
      </ReactMarkdown>
    </div>
  );
}
