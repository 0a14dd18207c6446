import type { ReactNode } from 'react';

/** A page's frame: its title and content, inside the shell. */
export function PageFrame({
  title,
  level = 1,
  children,
}: {
  title: string;
  level?: 1 | 2;
  children?: ReactNode;
}) {
  const H = level === 1 ? 'h1' : 'h2';
  return (
    <section className="vt-page">
      <H className="vt-page__title">{title}</H>
      {children}
    </section>
  );
}
