import "VitrineOffers"

/// Cancels the signer's offer `offerId` and deletes the FUSD withdraw capability it held.
transaction(offerId: UInt64) {
    prepare(buyer: auth(BorrowValue, StorageCapabilities) &Account) {
        let book = buyer.storage.borrow<auth(VitrineOffers.Manage) &VitrineOffers.Book>(from: VitrineOffers.BookStoragePath)
            ?? panic("cancel_offer: the signer has no offer book")
        let capabilityId = book.cancel(offerId: offerId)
        buyer.capabilities.storage.getController(byCapabilityID: capabilityId)?.delete()
    }
}
