import "FungibleToken"
import "FUSD"

/// Admin: mints `amount` FUSD into the vault of `recipient`.
transaction(recipient: Address, amount: UFix64) {
    let admin: &FUSD.Administrator
    let receiver: &{FungibleToken.Receiver}

    prepare(signer: auth(BorrowValue) &Account) {
        self.admin = signer.storage.borrow<&FUSD.Administrator>(from: FUSD.AdminStoragePath)
            ?? panic("mint_fusd: the signer holds no FUSD.Administrator")
        self.receiver = getAccount(recipient).capabilities.borrow<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath)
            ?? panic("mint_fusd: ".concat(recipient.toString()).concat(" has no FUSD vault (run account setup first)"))
    }

    execute {
        self.receiver.deposit(from: <- self.admin.mintTokens(amount: amount))
    }
}
