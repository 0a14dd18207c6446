import "FungibleToken"
import "FUSD"

/// Sends `amount` FUSD from the signer's vault to the vault of `to`.
transaction(to: Address, amount: UFix64) {
    let payment: @{FungibleToken.Vault}

    prepare(signer: auth(BorrowValue) &Account) {
        let vault = signer.storage.borrow<auth(FungibleToken.Withdraw) &FUSD.Vault>(from: FUSD.VaultStoragePath)
            ?? panic("transfer_fusd: the signer has no FUSD vault")
        self.payment <- vault.withdraw(amount: amount)
    }

    execute {
        let receiver = getAccount(to).capabilities.borrow<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath)
            ?? panic("transfer_fusd: ".concat(to.toString()).concat(" has no FUSD vault"))
        receiver.deposit(from: <- self.payment)
    }
}
