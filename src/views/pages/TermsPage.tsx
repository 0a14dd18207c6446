import { Link } from '@tanstack/react-router';
import { LegalPage, type LegalSection, SupportEmailLink } from './LegalPage';

const sections: readonly LegalSection[] = [
  {
    id: 'agreement',
    title: 'Agreement to these terms',
    body: (
      <>
        <p>
          These Terms of Service ("Terms") are an agreement between you and Vitrine ("Vitrine", "we", "us")
          about your use of the Vitrine website and services (the "Service"). By creating an account or using
          the Service you accept these Terms. If you do not accept them, do not use the Service.
        </p>
        <p>
          <strong>
            Please read the section on <a href="#disputes">dispute resolution and arbitration</a> carefully:
            it requires most disputes to be resolved by individual arbitration rather than in court, and it
            waives class actions.
          </strong>
        </p>
      </>
    ),
  },
  {
    id: 'eligibility',
    title: 'Eligibility',
    body: (
      <>
        <p>
          You must be at least 18 years old to create an account and use the Service, and you must be able to
          enter into a binding contract.
        </p>
        <p>
          If you are 13 to 17 years old, you may use the Service only through a parent's or guardian's
          account, with their permission and under their supervision. The parent or guardian is responsible
          for everything done through that account and accepts these Terms on the minor's behalf. The Service
          is not available to anyone under 13.
        </p>
      </>
    ),
  },
  {
    id: 'account',
    title: 'Your account',
    body: (
      <p>
        Give us accurate information when you sign up and keep it up to date. You are responsible for keeping
        your password and your wallet's keys and recovery phrase secret, and for everything that happens under
        your account. Tell us at once at <SupportEmailLink /> if you think someone else has access to it. We
        cannot recover the keys of a wallet we do not hold.
      </p>
    ),
  },
  {
    id: 'nfts-and-blockchain',
    title: 'NFTs and the Flow blockchain',
    body: (
      <>
        <p>
          The Service lets you buy, sell and collect digital collectibles ("NFTs") recorded on the Flow
          blockchain. Owning an NFT gives you the NFT itself and the rights its creator grants with it; unless
          the creator says otherwise, it does not transfer the copyright or other intellectual property in the
          artwork.
        </p>
        <p>
          Blockchain transactions are public and permanent. Once a transaction is confirmed we cannot reverse,
          cancel or change it. We do not operate the Flow blockchain and are not responsible for its
          availability, delays or failures. The value of NFTs and digital assets can go down as well as up,
          and you buy them at your own risk.
        </p>
      </>
    ),
  },
  {
    id: 'buying',
    title: 'Buying NFTs',
    body: (
      <>
        <p>
          You can pay by card, Apple Pay, Google Pay, cryptocurrency, your FUSD stablecoin balance or our
          utility token. Card and wallet payments are handled by our payment processors under their own terms.
          Buying does not require identity verification.
        </p>
        <p>
          When you buy an NFT from a creator's storefront, it is minted to your wallet at the time of
          purchase. Prices include any fee we show you before you confirm. Because blockchain transactions
          cannot be reversed, all sales are final unless the law requires otherwise.
        </p>
      </>
    ),
  },
  {
    id: 'selling-and-storefronts',
    title: 'Selling NFTs and storefronts',
    body: (
      <>
        <h3>Identity verification</h3>
        <p>
          Selling NFTs requires identity verification (KYC), carried out by our identity-verification partner.
          We may refuse, pause or end selling privileges if verification fails or the information you gave is
          incomplete or untrue.
        </p>
        <h3>Listings</h3>
        <p>
          A listing is posted to the blockchain, and it takes a few minutes to appear on the Service after
          that. You must own or have the right to sell what you list, and you are responsible for your
          listings' descriptions, prices and content. Creators may set a royalty that is paid to them
          automatically when their NFTs are resold.
        </p>
        <h3>Storefronts and paid features</h3>
        <p>
          Creating a storefront is free and includes basic customization. Custom domains, full design control
          and multiple storefronts are paid features, billed monthly at the price shown when you subscribe.
        </p>
        <h3>Payouts</h3>
        <p>
          Proceeds from your sales become available for payout after the sale settles, and you can request a
          payout once they reach the minimum shown in your payout settings. We may hold a payout while we
          review suspected fraud or a legal requirement.
        </p>
      </>
    ),
  },
  {
    id: 'content',
    title: 'Content and intellectual property',
    body: (
      <>
        <p>
          You keep the rights to the content you upload. You give Vitrine a worldwide, non-exclusive,
          royalty-free licence to host, display, reproduce and distribute it as needed to run and promote the
          Service, including showing your NFTs and storefront.
        </p>
        <p>
          The Service itself, including our name, logo, software and design, belongs to Vitrine and its
          licensors. If you believe content on the Service infringes your rights, write to{' '}
          <SupportEmailLink /> and we will review it.
        </p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>You agree not to:</p>
        <ul>
          <li>
            list or sell content you do not have the rights to, or that is illegal, hateful or deceptive;
          </li>
          <li>
            manipulate prices or volumes, for example by wash trading or by bidding on your own listings;
          </li>
          <li>use the Service for fraud, money laundering or to finance illegal activity;</li>
          <li>impersonate anyone or misrepresent your connection with a person or brand;</li>
          <li>
            interfere with the Service, probe its security or access it by automated means without our
            consent.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'export-laws',
    title: 'Export laws',
    body: (
      <p>
        You must comply with the export control and sanctions laws that apply to you and to the Service. You
        may not use the Service if you are located in, or a resident of, a country or region under
        comprehensive sanctions, or if you appear on a government list of restricted persons. We may block
        access, purchases or payouts where those laws require it.
      </p>
    ),
  },
  {
    id: 'privacy-and-cookies',
    title: 'Privacy and cookies',
    body: (
      <p>
        Our <Link to="/privacy">Privacy Policy</Link> explains what personal information we collect, how we
        use it and how we use cookies. It forms part of these Terms.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Termination',
    body: (
      <>
        <p>
          You can stop using the Service and close your account at any time. We may suspend or end your
          access, remove listings or storefronts, or withhold payouts if you break these Terms or the law, if
          we are required to, or if your use puts other users or Vitrine at risk. Where we can, we will tell
          you why.
        </p>
        <p>
          NFTs already in your wallet stay yours after termination. Sections that by their nature should
          survive termination, including those on intellectual property, disclaimers, limitation of liability
          and dispute resolution, continue to apply.
        </p>
      </>
    ),
  },
  {
    id: 'disclaimers',
    title: 'Disclaimers',
    body: (
      <p>
        The Service is provided "as is" and "as available". To the extent the law allows, we make no
        warranties, express or implied, including that the Service will be uninterrupted or error-free, or
        about the value, quality or authenticity of any NFT. Creators, not Vitrine, are responsible for the
        NFTs they sell.
      </p>
    ),
  },
  {
    id: 'limitation-of-liability',
    title: 'Limitation of liability',
    body: (
      <p>
        To the extent the law allows, Vitrine is not liable for any indirect, incidental, special,
        consequential or punitive damages, or for lost profits, data or digital assets. Our total liability
        for any claim arising out of or relating to these Terms or the Service is limited to the greater of
        $100 or the amount we received from you. Some jurisdictions do not allow these limits, so some of them
        may not apply to you.
      </p>
    ),
  },
  {
    id: 'indemnification',
    title: 'Indemnification',
    body: (
      <p>
        You agree to defend and indemnify Vitrine against claims, losses and costs, including reasonable legal
        fees, arising from your content, your listings, your use of the Service or your breach of these Terms.
      </p>
    ),
  },
  {
    id: 'disputes',
    title: 'Dispute resolution and arbitration',
    body: (
      <>
        <h3>Informal resolution first</h3>
        <p>
          Before starting an arbitration or court case, you and we agree to try to resolve the dispute
          informally for 30 days. Send a description of the dispute and the relief you want to{' '}
          <SupportEmailLink />; we will send ours to the email address on your account.
        </p>
        <h3>Binding individual arbitration</h3>
        <p>
          If the dispute is not resolved within those 30 days, it will be settled by binding arbitration
          before a single arbitrator, except that either of us may bring an individual claim in small claims
          court. Claims below $250,000 are decided under the arbitration provider's streamlined arbitration
          rules. You and we each waive the right to a jury trial and to take part in a class action or class
          arbitration.
        </p>
        <h3>Arbitration fees</h3>
        <p>
          For claims below $10,000, we will reimburse your filing, administration and arbitrator fees, so that
          you pay no more than $250 in total.
        </p>
        <h3>Changes to this section</h3>
        <p>
          If we change this section, you may reject the change by writing to <SupportEmailLink /> within 30
          days of the change taking effect. The version of this section you last accepted then continues to
          apply to disputes between us.
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may change these Terms from time to time. We will update the date at the top of this page and, for
        significant changes, tell you by email or on the Service before they take effect. If you keep using
        the Service after a change takes effect, you accept the new Terms.
      </p>
    ),
  },
  {
    id: 'general',
    title: 'General',
    body: (
      <p>
        These Terms, together with the Privacy Policy, are the whole agreement between you and Vitrine about
        the Service. If a provision is found unenforceable, the rest remains in effect. If we do not enforce a
        provision, we have not waived it. You may not transfer these Terms without our consent; we may
        transfer them as part of a merger, acquisition or sale of assets.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    body: (
      <p>
        Questions about these Terms? Write to <SupportEmailLink />.
      </p>
    ),
  },
];

/** The Terms of Service (/terms). */
export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      updated={{ iso: '2023-02-18', label: 'Feb 18, 2023' }}
      intro={
        <p className="vt-lead">
          Welcome to Vitrine, a marketplace for digital collectibles on the Flow blockchain. These Terms set
          out the rules for using Vitrine, whether you collect, sell or run a storefront.
        </p>
      }
      sections={sections}
    />
  );
}
