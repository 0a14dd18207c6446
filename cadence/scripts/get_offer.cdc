import "VitrineOffers"

/// Offer `offerId` in the offer book of `buyer` (with whether the buyer's FUSD balance covers it
/// now and whether it has expired), or nil when there is no such offer (accepted, canceled, never made).
access(all) fun main(buyer: Address, offerId: UInt64): VitrineOffers.OfferDetails? {
    let book = getAccount(buyer).capabilities.borrow<&{VitrineOffers.BookPublic}>(VitrineOffers.BookPublicPath)
    return book?.getDetails(offerId: offerId) ?? nil
}
