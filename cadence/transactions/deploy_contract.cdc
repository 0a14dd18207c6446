/// Adds the contract `name` with source `code` (hex of UTF-8) to the signer's account.
transaction(name: String, code: String) {
    prepare(signer: auth(AddContract) &Account) {
        signer.contracts.add(name: name, code: code.decodeHex())
    }
}
