import "FungibleToken"
import "NonFungibleToken"
import "FUSD"
import "VitrineNFT"
import "VitrineOffers"

/// Accepts offer `offerId` of `buyer` for an NFT the signer holds: withdraws the offer's NFT from the
/// signer's VitrineNFT collection and hands it to the offer, which pays the signer's FUSD vault the
/// seller's share (after royalties and the platform fee) and deposits the NFT with the buyer, all in
/// this one transaction. It fails when the offer has expired or the buyer's balance no longer covers it.
transaction(buyer: Address, offerId: UInt64) {
    let book: &{VitrineOffers.BookPublic}
    let item: @{NonFungibleToken.NFT}
    let sellerReceiver: Capability<&{FungibleToken.Receiver}>

    prepare(seller: auth(BorrowValue) &Account) {
        self.book = getAccount(buyer).capabilities.borrow<&{VitrineOffers.BookPublic}>(VitrineOffers.BookPublicPath)
            ?? panic("accept_offer: ".concat(buyer.toString()).concat(" has no offer book"))
        let details = self.book.getDetails(offerId: offerId)
            ?? panic("accept_offer: no offer ".concat(offerId.toString()).concat(" from ").concat(buyer.toString()))
        let collection = seller.storage.borrow<auth(NonFungibleToken.Withdraw) &VitrineNFT.Collection>(from: VitrineNFT.CollectionStoragePath)
            ?? panic("accept_offer: the signer has no VitrineNFT collection")
        self.item <- collection.withdraw(withdrawID: details.nftId)
        self.sellerReceiver = seller.capabilities.get<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath)
    }

    execute {
        self.book.accept(offerId: offerId, item: <- self.item, sellerReceiver: self.sellerReceiver)
    }
}
