/// FCLCrypto: signature checks that FCL's `AppUtils.verifyAccountProof` and
/// `AppUtils.verifyUserSignatures` run as scripts. FCL knows this contract's address on testnet and
/// mainnet; on the emulator Vitrine deploys it and passes the address (`fclCryptoContract`).
///
/// A set of signatures proves control of an account when every signature is valid for a distinct,
/// unrevoked key of the account and the keys' weights add up to at least 1000.
access(all) contract FCLCrypto {

    /// Tag of messages signed as the user (FLOW-V0.0-user, padded by Cadence to 32 bytes).
    access(all) let userTag: String
    /// Tag of the account proof that a wallet signs when a user connects.
    access(all) let accountProofTag: String

    /// True when `signatures` (hex) made with the keys `keyIndices` of `address` sign `message` (hex) as the user.
    access(all) fun verifyUserSignatures(
        address: Address,
        message: String,
        keyIndices: [Int],
        signatures: [String]
    ): Bool {
        return self.hasSigningPower(
            address: address,
            message: message,
            keyIndices: keyIndices,
            signatures: signatures,
            tag: self.userTag
        )
    }

    /// True when the signatures sign the account proof `message` (hex, without its tag). Wallets that
    /// sign account proofs with the user tag are accepted too, as FCL does.
    access(all) fun verifyAccountProofSignatures(
        address: Address,
        message: String,
        keyIndices: [Int],
        signatures: [String]
    ): Bool {
        if self.hasSigningPower(address: address, message: message, keyIndices: keyIndices, signatures: signatures, tag: self.accountProofTag) {
            return true
        }
        return self.hasSigningPower(address: address, message: message, keyIndices: keyIndices, signatures: signatures, tag: self.userTag)
    }

    access(self) fun hasSigningPower(
        address: Address,
        message: String,
        keyIndices: [Int],
        signatures: [String],
        tag: String
    ): Bool {
        pre {
            keyIndices.length == signatures.length:
                "FCLCrypto: got ".concat(keyIndices.length.toString()).concat(" key indices for ")
                    .concat(signatures.length.toString()).concat(" signatures")
        }
        let keys = getAccount(address).keys
        let signedData = message.decodeHex()
        let used: {Int: Bool} = {}
        var weight: UFix64 = 0.0

        for position, keyIndex in keyIndices {
            let key = keys.get(keyIndex: keyIndex) ?? panic("FCLCrypto: the account has no key ".concat(keyIndex.toString()))
            if used[key.keyIndex] == true || key.isRevoked {
                return false
            }
            used[key.keyIndex] = true
            let valid = key.publicKey.verify(
                signature: signatures[position].decodeHex(),
                signedData: signedData,
                domainSeparationTag: tag,
                hashAlgorithm: key.hashAlgorithm
            )
            if !valid {
                return false
            }
            weight = weight + key.weight
        }
        return weight >= 1000.0
    }

    init() {
        self.userTag = "FLOW-V0.0-user"
        self.accountProofTag = "FCL-ACCOUNT-PROOF-V0.0"
    }
}
