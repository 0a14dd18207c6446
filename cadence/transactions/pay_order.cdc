import "FungibleToken"
import "FUSD"
import "VitrineCheckout"

/// Pays `amount` FUSD from the signer's vault for the order `orderId` (a new edition bought with the
/// FUSD balance). A payment that cannot serve the order comes back to the signer.
transaction(orderId: String, amount: UFix64) {
    let payment: @FUSD.Vault
    let payer: Address

    prepare(buyer: auth(BorrowValue) &Account) {
        let vault = buyer.storage.borrow<auth(FungibleToken.Withdraw) &FUSD.Vault>(from: FUSD.VaultStoragePath)
            ?? panic("pay_order: the buyer has no FUSD vault")
        self.payment <- vault.withdraw(amount: amount) as! @FUSD.Vault
        self.payer = buyer.address
    }

    execute {
        VitrineCheckout.pay(orderId: orderId, payment: <- self.payment, refundTo: self.payer)
    }
}
