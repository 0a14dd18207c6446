/// Creates an account paid for by the signer, with one full-weight key: `publicKey` (hex, 64 bytes),
/// ECDSA P-256 over SHA3-256. The new address is in the flow.AccountCreated event.
transaction(publicKey: String) {
    prepare(payer: auth(BorrowValue) &Account) {
        let account = Account(payer: payer)
        account.keys.add(
            publicKey: PublicKey(publicKey: publicKey.decodeHex(), signatureAlgorithm: SignatureAlgorithm.ECDSA_P256),
            hashAlgorithm: HashAlgorithm.SHA3_256,
            weight: 1000.0
        )
    }
}
