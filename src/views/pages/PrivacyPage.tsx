import { Link } from '@tanstack/react-router';
import { LegalPage, type LegalSection, SupportEmailLink } from './LegalPage';

const sections: readonly LegalSection[] = [
  {
    id: 'information-we-collect',
    title: 'Information we collect',
    body: (
      <>
        <p>
          We collect only what we need to run the marketplace, keep it safe and meet our legal obligations.
        </p>
        <h3>Information you give us</h3>
        <ul>
          <li>
            <strong>Account details:</strong> your email address, username and name, and your password (which
            we store only as a salted hash).
          </li>
          <li>
            <strong>Profile and storefront details:</strong> anything you choose to publish, such as an
            avatar, a bio, a storefront name, logo, banner and a contact email for your storefront.
          </li>
          <li>
            <strong>Messages:</strong> what you send us when you contact support or answer a survey.
          </li>
        </ul>
        <h3>Identity verification</h3>
        <p>
          Before you can sell, we ask you to verify your identity (often called KYC, "know your customer").
          The check is run by an identity-verification partner, which may collect a government-issued ID, a
          selfie, your date of birth and your address. The partner handles those documents under its own
          privacy policy; we receive the outcome of the check and the limited details we need to keep a record
          of it. Buying does not require identity verification.
        </p>
        <h3>Payment information</h3>
        <p>
          You can pay by card, Apple Pay, Google Pay, cryptocurrency, your FUSD stablecoin balance or our
          utility token. Card, Apple Pay and Google Pay payments are processed by our payment processors, and
          cryptocurrency payments by a crypto payment provider. They receive your payment details directly. We
          never store full card numbers: we keep only the card brand and the last four digits, so that you can
          recognise the card on your receipts and in your settings. We also keep a record of each order and of
          the movements on your FUSD and utility-token balances.
        </p>
        <h3>Wallet and blockchain information</h3>
        <p>
          When you connect or create a Flow wallet we record its address, and we read public blockchain data
          about it, such as the collectibles it holds and its transactions with Vitrine.
        </p>
        <h3>Information collected automatically</h3>
        <p>
          When you use Vitrine we log technical information such as your IP address, browser and device type,
          the pages you visit, and the date and time of your requests. Some of it comes from cookies,
          described in the <a href="#cookies">Cookies</a> section.
        </p>
      </>
    ),
  },
  {
    id: 'how-we-use-information',
    title: 'How we use your information',
    body: (
      <>
        <p>We use your information to:</p>
        <ul>
          <li>create and secure your account, and sign you in;</li>
          <li>process purchases, mint collectibles to your wallet, run listings and pay out creators;</li>
          <li>verify the identity of sellers and prevent fraud, money laundering and abuse;</li>
          <li>send you receipts, security alerts and other messages about your account;</li>
          <li>answer your questions and support requests;</li>
          <li>understand how Vitrine is used so that we can fix problems and improve it;</li>
          <li>meet our legal, tax and accounting obligations and enforce our terms.</li>
        </ul>
        <p>
          We send marketing emails only if you have agreed to receive them, and every one of them has an
          unsubscribe link.
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    title: 'How we share information',
    body: (
      <>
        <p>We do not sell your personal information. We share it only:</p>
        <ul>
          <li>
            <strong>With service providers</strong> who work for us, such as hosting, email delivery, our
            identity-verification partner and our payment processors, and only for the service they provide;
          </li>
          <li>
            <strong>With the public</strong>, for what you choose to make public: your username, profile,
            storefront and the collectibles you own or list;
          </li>
          <li>
            <strong>For legal reasons</strong>, when the law requires it, or when we believe in good faith
            that it is needed to protect the rights, property or safety of our users, the public or Vitrine;
          </li>
          <li>
            <strong>In a business transfer</strong>, such as a merger or acquisition, in which case this
            policy keeps protecting your information;
          </li>
          <li>
            <strong>With your consent</strong>, in any other case.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'blockchain',
    title: 'Public blockchain data',
    body: (
      <p>
        Vitrine runs on the Flow blockchain. Blockchain transactions are public and permanent: anyone can see
        a wallet address, the collectibles it holds and the transactions it made, and nobody, including
        Vitrine, can change or erase them. If your wallet address can be linked to you, those transactions can
        be too. Deleting your Vitrine account does not remove anything from the blockchain.
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    body: (
      <>
        <p>
          Cookies are small files a website stores in your browser. We use them to keep you signed in, to
          remember your preferences and to measure how the site is used. We do not use cookies to show you
          advertising on other websites.
        </p>
        <p>
          You can block or delete cookies in your browser settings. If you block the cookies that keep you
          signed in, parts of Vitrine will not work.
        </p>
      </>
    ),
  },
  {
    id: 'data-retention',
    title: 'Data retention',
    body: (
      <p>
        We keep your information for as long as your account is open and as long as we need it for the
        purposes described in this policy. After you close your account we delete or anonymise it, except for
        what we must keep to meet legal, tax and accounting obligations, resolve disputes, prevent fraud and
        enforce our agreements, which we keep only for as long as those purposes require.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        We protect your information with technical and organisational measures, including encryption in
        transit, hashed passwords and access limited to the people who need it. No system is perfectly secure,
        so please choose a strong, unique password, keep your wallet's recovery phrase to yourself and tell us
        at once if you think your account has been compromised.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your choices and rights',
    body: (
      <>
        <p>
          You can see and update most of your information in your account settings. You can also ask us to
          give you a copy of your information, to correct it, to delete it, or to stop or limit how we use it.
          Depending on where you live, the law may give you further rights.
        </p>
        <p>
          To make a request, write to <SupportEmailLink /> from the email address on your account. We may ask
          you for more information to confirm your identity. We answer data requests within 90 days.
        </p>
      </>
    ),
  },
  {
    id: 'california',
    title: 'California residents',
    body: (
      <>
        <p>If you live in California, the California Consumer Privacy Act gives you the right to:</p>
        <ul>
          <li>
            know what personal information we collected about you in the preceding 12 months (a 12-month
            look-back): the categories and specific pieces of information, where we got them, why we collected
            them and the categories of third parties we shared them with;
          </li>
          <li>ask us to delete or correct your personal information;</li>
          <li>
            opt out of the sale or sharing of your personal information (we do not sell or share it for
            cross-context behavioural advertising);
          </li>
          <li>not be treated differently for exercising any of these rights.</li>
        </ul>
        <p>
          You, or an agent you authorise, can exercise these rights by writing to <SupportEmailLink />. The
          categories of information we collect are listed in{' '}
          <a href="#information-we-collect">Information we collect</a>.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: (
      <p>
        Vitrine is not for children under 13, and we do not knowingly collect their personal information.
        Users aged 13 to 17 may use Vitrine only through a parent's or guardian's account, as our{' '}
        <Link to="/terms">Terms of Service</Link> explain. If you believe a child under 13 has given us
        personal information, write to <SupportEmailLink /> and we will delete it.
      </p>
    ),
  },
  {
    id: 'export-laws',
    title: 'Export laws',
    body: (
      <p>
        Where export control and sanctions laws apply, we use the information you give us, such as your
        country and the results of identity verification, to check that we can lawfully serve you. We may
        refuse or suspend an account, a purchase or a payout when those laws require it.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Termination',
    body: (
      <p>
        If you close your account, or we end it under our Terms of Service, we stop using your information for
        anything other than the purposes described in <a href="#data-retention">Data retention</a>. The
        collectibles in your wallet stay yours, and the public blockchain record of your transactions remains.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        We may update this policy from time to time. We will change the date at the top of this page and, if
        the changes are significant, tell you by email or on the site before they take effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Questions and complaints',
    body: (
      <>
        <p>
          If you have a question about this policy or a complaint about how we handle your information, write
          to <SupportEmailLink />. Privacy complaints are answered within 60 days.
        </p>
        <p>
          If you are not satisfied with our answer, you may also have the right to complain to the data
          protection authority where you live.
        </p>
      </>
    ),
  },
];

/** The Privacy Policy (/privacy). */
export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated={{ iso: '2022-02-23', label: 'Feb 23, 2022' }}
      intro={
        <p className="vt-lead">
          Vitrine is a marketplace for digital collectibles (NFTs) on the Flow blockchain, where creators run
          their own storefronts and collectors buy, sell and show off what they own. This policy explains what
          personal information we collect when you use Vitrine, how we use and share it, and the choices you
          have.
        </p>
      }
      sections={sections}
    />
  );
}
