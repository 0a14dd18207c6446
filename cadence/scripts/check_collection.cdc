import "NonFungibleToken"
import "FungibleToken"
import "VitrineNFT"
import "FUSD"

/// Whether `address` is set up for Vitrine: a VitrineNFT collection and an FUSD vault, each
/// reachable through its public capability. `ready` is both.
access(all) fun main(address: Address): {String: Bool} {
    let account = getAccount(address)
    let collection = account.capabilities.get<&VitrineNFT.Collection>(VitrineNFT.CollectionPublicPath).check()
    let receiver = account.capabilities.get<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath).check()
    let balance = account.capabilities.get<&{FungibleToken.Balance}>(FUSD.BalancePublicPath).check()
    return {
        "collection": collection,
        "fusdVault": receiver && balance,
        "ready": collection && receiver && balance
    }
}
