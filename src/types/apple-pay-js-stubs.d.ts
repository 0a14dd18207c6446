/** apple-pay-js-stubs installs window.ApplePaySession (a stub of Apple Pay JS) when imported; it exports nothing. */
declare module 'apple-pay-js-stubs';
