import "FungibleToken"
import "FUSD"

/// VitrineCheckout: new editions paid from a buyer's FUSD balance. The buyer's wallet signs
/// transactions/pay_order.cdc, which hands the order's price, as an FUSD vault, to `pay` with the
/// order's id; the payment goes into the platform's treasury (this account's FUSD vault) and `Paid`
/// is emitted. The server reads `Paid` (from the transaction the buyer reports and from its event
/// indexer) and mints the edition when the payment covers an order still waiting for it; any other
/// payment (for an unknown, ended or already paid order, or short of the price) is sent back to
/// `refundTo` from the treasury. The contract holds no order state: a payment is only a fact.
access(all) contract VitrineCheckout {

    /// `orderId` is the order the buyer reserved; `refundTo` is where a payment that cannot serve
    /// it goes back (the payer's own address in pay_order.cdc).
    access(all) event Paid(orderId: String, amount: UFix64, refundTo: Address)

    access(all) fun pay(orderId: String, payment: @FUSD.Vault, refundTo: Address) {
        pre {
            orderId.length > 0 && orderId.length <= 64: "VitrineCheckout.pay: not an order id"
            payment.balance > 0.0: "VitrineCheckout.pay: the payment is empty"
        }
        let amount = payment.balance
        let treasury = self.account.capabilities.borrow<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath)
            ?? panic("VitrineCheckout.pay: the treasury has no FUSD receiver")
        treasury.deposit(from: <- payment)
        emit Paid(orderId: orderId, amount: amount, refundTo: refundTo)
    }
}
