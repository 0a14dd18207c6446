import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';

/**
 * The frame every email shares: the brand name, a white card with the title, the text and one
 * button (its link also written out, for a client that shows no buttons), and a footer. Colors and
 * font are the app's (src/styles/tokens.css, light theme), written inline: mail clients read no
 * stylesheet.
 */
export const brand = {
  name: 'Vitrine',
  primary: '#5b3df5',
  primaryText: '#ffffff',
  text: '#15151a',
  muted: '#5d5d6b',
  surface: '#f6f6f8',
  card: '#ffffff',
  border: '#e3e3e8',
  font: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
} as const;

const body: CSSProperties = {
  backgroundColor: brand.surface,
  fontFamily: brand.font,
  margin: 0,
  padding: '32px 0',
};
const container: CSSProperties = { maxWidth: '560px', margin: '0 auto', padding: '0 16px' };
const logo: CSSProperties = {
  color: brand.primary,
  fontSize: '22px',
  fontWeight: 700,
  letterSpacing: '-0.02em',
  margin: '0 0 16px',
};
const card: CSSProperties = {
  backgroundColor: brand.card,
  border: `1px solid ${brand.border}`,
  borderRadius: '16px',
  padding: '32px',
};
const title: CSSProperties = { color: brand.text, fontSize: '24px', lineHeight: '32px', margin: '0 0 16px' };
const button: CSSProperties = {
  backgroundColor: brand.primary,
  borderRadius: '10px',
  color: brand.primaryText,
  fontSize: '16px',
  fontWeight: 600,
  padding: '12px 24px',
  textDecoration: 'none',
};
const small: CSSProperties = {
  color: brand.muted,
  fontSize: '13px',
  lineHeight: '20px',
  wordBreak: 'break-all',
};
const footer: CSSProperties = {
  color: brand.muted,
  fontSize: '13px',
  lineHeight: '20px',
  margin: '16px 0 0',
};

/** A paragraph of an email's text. */
export function Paragraph({ children }: { children: ReactNode }) {
  return (
    <Text style={{ color: brand.text, fontSize: '16px', lineHeight: '24px', margin: '0 0 16px' }}>
      {children}
    </Text>
  );
}

/** A link inside an email's text or footer. */
export function EmailLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} style={{ color: brand.primary, textDecoration: 'underline' }}>
      {children}
    </Link>
  );
}

export interface LayoutProps {
  /** The line a mail client shows beside the subject. */
  preview: string;
  title: string;
  /** The call to action. */
  action?: { label: string; href: string };
  footer?: ReactNode;
  children: ReactNode;
}

export function Layout({ preview, title: heading, action, footer: end, children }: LayoutProps) {
  return (
    <Html lang="en">
      <Head />
      <Body style={body}>
        {/* In the body: a document has nothing between its head and its body. */}
        <Preview>{preview}</Preview>
        <Container style={container}>
          <Text style={logo}>{brand.name}</Text>
          <Section style={card}>
            <Heading as="h1" style={title}>
              {heading}
            </Heading>
            {children}
            {action && (
              <>
                <Section style={{ margin: '8px 0 24px' }}>
                  <Button href={action.href} style={button}>
                    {action.label}
                  </Button>
                </Section>
                {/* The plain-text part has the link beside the button's label already. */}
                <Text style={small} data-skip-in-text="true">
                  Or open this link: <EmailLink href={action.href}>{action.href}</EmailLink>
                </Text>
              </>
            )}
          </Section>
          <Text style={footer}>{end ?? `You get this email because of your ${brand.name} account.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}
