import ReactMarkdown from 'react-markdown';

// Skill instructions are untrusted: react-markdown renders no raw HTML, and links are
// limited to http(s) and mailto so no `javascript:` URL reaches the page.
const SAFE_URL = /^(https?:|mailto:|#|\/)/i;

export function Markdown({ source }: { source: string }) {
  return (
    <div className="prose-skill">
      <ReactMarkdown
        skipHtml
        urlTransform={(url) => (SAFE_URL.test(url) ? url : '')}
        components={{
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
