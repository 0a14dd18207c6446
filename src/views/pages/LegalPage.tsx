import { type ReactNode, useId } from 'react';
import { SUPPORT_EMAIL } from '#domain/constants';
import './legal.css';

/** A link that opens the user's mail client on the support address. */
export function SupportEmailLink() {
  return <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>;
}

/**
 * One numbered section of a legal document. `id` is the in-page anchor (`#id`); `body` may hold
 * `<h3>` subsections, never `<h1>`/`<h2>` (the section title is the `<h2>`).
 */
export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/**
 * The layout shared by the Privacy Policy and the Terms of Service: title, last-updated date, an
 * optional introduction, a table of contents of in-page links, then the numbered sections.
 * Headings run h1 (title) → h2 (contents, sections) → h3 (inside a section body).
 */
export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  /** `iso` is the machine-readable date (YYYY-MM-DD); `label` is what readers see, e.g. "Feb 18, 2023". */
  updated: { iso: string; label: string };
  intro?: ReactNode;
  sections: readonly LegalSection[];
}) {
  const tocHeading = useId();
  return (
    <article className="vt-page vt-legal">
      <header className="vt-legal__header">
        <h1 className="vt-page__title">{title}</h1>
        <p className="vt-muted vt-legal__updated">
          Last updated <time dateTime={updated.iso}>{updated.label}</time>
        </p>
      </header>
      {intro ? <div className="vt-legal__intro">{intro}</div> : null}
      <nav className="vt-legal__toc" aria-labelledby={tocHeading}>
        <h2 id={tocHeading} className="vt-legal__toc-title">
          Contents
        </h2>
        <ol>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section key={section.id} id={section.id} className="vt-legal__section">
          <h2>
            {index + 1}. {section.title}
          </h2>
          {section.body}
        </section>
      ))}
    </article>
  );
}
