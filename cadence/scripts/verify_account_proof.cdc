import "FCLCrypto"

/// Whether the signatures by the given keys of `address` sign the account proof `message`
/// (hex of the encoded proof, without its domain tag).
access(all) fun main(address: Address, message: String, keyIndices: [Int], signatures: [String]): Bool {
    return FCLCrypto.verifyAccountProofSignatures(
        address: address,
        message: message,
        keyIndices: keyIndices,
        signatures: signatures
    )
}
