import { memo, useEffect, useRef, useState, type ReactNode } from "react";
import ReactMarkdown, { type Components, type ExtraProps, type Options } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

/** The only languages highlighted; anything else is shown as plain code. */
const LANGUAGES = { bash, c, cpp, css, diff, go, ini, javascript, json, python, rust, shell, typescript, xml, yaml };
const ALIASES = { ini: ["toml"], bash: ["sh", "zsh"], shell: ["console"], javascript: ["js", "jsx"], typescript: ["ts", "tsx"] };

const rehypePlugins: NonNullable<Options["rehypePlugins"]> = [
  [rehypeHighlight, { languages: LANGUAGES, aliases: ALIASES, detect: false }],
];
const remarkPlugins: NonNullable<Options["remarkPlugins"]> = [remarkGfm];

/** The subset of a hast node this file reads. */
type HastNode = {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
};

function hastText(node: HastNode | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(hastText).join("");
}

/** The URL when it is an absolute http: or https: URL, normalised; null for anything else. */
export function safeHttpUrl(url: string | undefined | null): URL | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : null;
  } catch {
    return null;
  }
}

function sameTarget(text: string, url: URL): boolean {
  const strip = (s: string) => s.trim().replace(/^https?:\/\//i, "").replace(/\/$/, "").toLowerCase();
  return strip(text) === strip(url.href) || strip(text) === strip(decodeURI(url.href));
}

// Links keep the URL exactly as written; the `a` and `img` renderers below decide what to do with
// it and never put anything but a checked http(s) URL into an attribute that loads or navigates.
const keepUrl = (url: string) => url;

type LinkProps = { href?: string; title?: string; children?: ReactNode } & ExtraProps;

function Link({ href, title, children, node, onOpenLink }: LinkProps & { onOpenLink?: (url: string) => void }) {
  const url = safeHttpUrl(href);
  const text = hastText(node as HastNode | undefined);
  if (!url) {
    // In-page anchors (GFM footnotes) and mail addresses shown as themselves are plain text.
    const plain = !href || href.startsWith("#") || href.replace(/^mailto:/i, "") === text.trim();
    if (plain) return <span className="md-link-inert">{children}</span>;
    return (
      <span className="md-link-inert" title="Link not opened: only http and https links are allowed">
        {children}
        <span className="md-link-target"> (blocked link)</span>
      </span>
    );
  }
  const target = url.href;
  const showTarget = !sameTarget(text, url);
  return (
    <a
      className="md-link"
      href={target}
      title={title ? `${title} — ${target}` : target}
      rel="noreferrer noopener"
      onClick={(e) => {
        e.preventDefault();
        onOpenLink?.(target);
      }}
    >
      {children}
      {showTarget && <span className="md-link-target"> ({url.host})</span>}
    </a>
  );
}

function CodeBlock({ node, children }: { children?: ReactNode } & ExtraProps) {
  const code = (node as HastNode | undefined)?.children?.find((n) => n.type === "element" && n.tagName === "code");
  const classes = code?.properties?.className;
  const langClass = Array.isArray(classes)
    ? classes.find((c): c is string => typeof c === "string" && c.startsWith("language-"))
    : undefined;
  const lang = langClass ? langClass.slice("language-".length) : "";
  const text = hastText(code).replace(/\n$/, "");
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = () => {
    const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
    if (!clipboard?.writeText) return;
    clipboard.writeText(text).then(
      () => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), 1500);
      },
      () => {},
    );
  };

  return (
    <div className="md-code">
      <div className="md-code-bar">
        <span className="md-code-lang">{lang || "text"}</span>
        <button type="button" className="ghost md-code-copy" onClick={copy} aria-label={copied ? "Copied" : "Copy code"}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre>{children}</pre>
    </div>
  );
}

function Image({ src, alt }: { src?: string; alt?: string } & ExtraProps) {
  return <span className="md-image">{`[image: ${alt ?? ""}](${src ?? ""})`}</span>;
}

/**
 * Assistant Markdown, rendered safely while it streams: GitHub-flavoured Markdown, highlighted
 * code with a copy button, no raw HTML (it shows as text), no images loaded, and links that only
 * ever open http(s) targets through `onOpenLink`.
 */
export function Markdown(props: { text: string; onOpenLink?: (url: string) => void }) {
  return <MarkdownBody text={props.text} onOpenLink={props.onOpenLink} />;
}

// Memoised so a parent re-rendering for other reasons does not re-parse unchanged text.
const MarkdownBody = memo(function MarkdownBody({ text, onOpenLink }: { text: string; onOpenLink?: (url: string) => void }) {
  const components: Components = {
    a: ({ href, title, children, node }) => (
      <Link href={href} title={title} node={node} onOpenLink={onOpenLink}>
        {children}
      </Link>
    ),
    img: ({ src, alt, node }) => <Image src={typeof src === "string" ? src : undefined} alt={alt} node={node} />,
    pre: ({ children, node }) => <CodeBlock node={node}>{children}</CodeBlock>,
  };
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={keepUrl}
        skipHtml={false}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
