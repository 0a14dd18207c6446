import "FungibleToken"
import "NonFungibleToken"
import "FUSD"
import "VitrineNFT"
import "VitrineOffers"

/// Offers `amount` FUSD for VitrineNFT `nftId`, open for `expiryDays` days (1, 3, 7 or 30). The offer
/// lives in the signer's offer book (created here if missing, with its public capability) and holds a
/// capability to withdraw from the signer's FUSD vault, used only when the NFT's owner accepts; the
/// NFT will go into the signer's VitrineNFT collection (set up here if missing).
transaction(nftId: UInt64, amount: UFix64, expiryDays: UInt8) {
    let book: auth(VitrineOffers.Manage) &VitrineOffers.Book
    let payment: Capability<auth(FungibleToken.Withdraw) &FUSD.Vault>
    let nftReceiver: Capability<&{NonFungibleToken.Receiver}>

    prepare(buyer: auth(BorrowValue, SaveValue, IssueStorageCapabilityController, PublishCapability, UnpublishCapability) &Account) {
        assert(buyer.storage.borrow<&FUSD.Vault>(from: FUSD.VaultStoragePath) != nil, message: "make_offer: the buyer has no FUSD vault (run account setup first)")

        if buyer.storage.borrow<&VitrineNFT.Collection>(from: VitrineNFT.CollectionStoragePath) == nil {
            buyer.storage.save(<- VitrineNFT.createEmptyCollection(nftType: Type<@VitrineNFT.NFT>()), to: VitrineNFT.CollectionStoragePath)
        }
        if !buyer.capabilities.get<&VitrineNFT.Collection>(VitrineNFT.CollectionPublicPath).check() {
            buyer.capabilities.unpublish(VitrineNFT.CollectionPublicPath)
            buyer.capabilities.publish(
                buyer.capabilities.storage.issue<&VitrineNFT.Collection>(VitrineNFT.CollectionStoragePath),
                at: VitrineNFT.CollectionPublicPath
            )
        }

        if buyer.storage.borrow<&VitrineOffers.Book>(from: VitrineOffers.BookStoragePath) == nil {
            buyer.storage.save(<- VitrineOffers.createBook(), to: VitrineOffers.BookStoragePath)
        }
        if !buyer.capabilities.get<&{VitrineOffers.BookPublic}>(VitrineOffers.BookPublicPath).check() {
            buyer.capabilities.unpublish(VitrineOffers.BookPublicPath)
            buyer.capabilities.publish(
                buyer.capabilities.storage.issue<&{VitrineOffers.BookPublic}>(VitrineOffers.BookStoragePath),
                at: VitrineOffers.BookPublicPath
            )
        }
        self.book = buyer.storage.borrow<auth(VitrineOffers.Manage) &VitrineOffers.Book>(from: VitrineOffers.BookStoragePath)!
        self.payment = buyer.capabilities.storage.issue<auth(FungibleToken.Withdraw) &FUSD.Vault>(FUSD.VaultStoragePath)
        self.nftReceiver = buyer.capabilities.storage.issue<&{NonFungibleToken.Receiver}>(VitrineNFT.CollectionStoragePath)
    }

    execute {
        self.book.make(nftId: nftId, amount: amount, expiryDays: expiryDays, payment: self.payment, nftReceiver: self.nftReceiver)
    }
}
