import "NFTStorefrontV2"

access(all) struct SaleCutData {
    access(all) let receiver: Address
    access(all) let amount: UFix64

    init(receiver: Address, amount: UFix64) {
        self.receiver = receiver
        self.amount = amount
    }
}

access(all) struct ListingData {
    access(all) let listingResourceID: UInt64
    access(all) let seller: Address
    access(all) let nftType: String
    access(all) let nftID: UInt64
    access(all) let salePaymentVaultType: String
    access(all) let salePrice: UFix64
    access(all) let saleCuts: [SaleCutData]
    access(all) let customID: String?
    access(all) let commissionAmount: UFix64
    access(all) let expiry: UInt64
    access(all) let purchased: Bool

    init(listingResourceID: UInt64, seller: Address, details: NFTStorefrontV2.ListingDetails) {
        self.listingResourceID = listingResourceID
        self.seller = seller
        self.nftType = details.nftType.identifier
        self.nftID = details.nftID
        self.salePaymentVaultType = details.salePaymentVaultType.identifier
        self.salePrice = details.salePrice
        let cuts: [SaleCutData] = []
        for cut in details.saleCuts {
            cuts.append(SaleCutData(receiver: cut.receiver.address, amount: cut.amount))
        }
        self.saleCuts = cuts
        self.customID = details.customID
        self.commissionAmount = details.commissionAmount
        self.expiry = details.expiry
        self.purchased = details.purchased
    }
}

/// A listing of the NFTStorefrontV2 storefront of `address`, or nil if there is no such listing.
access(all) fun main(address: Address, listingResourceID: UInt64): ListingData? {
    let storefront = getAccount(address).capabilities.borrow<&{NFTStorefrontV2.StorefrontPublic}>(NFTStorefrontV2.StorefrontPublicPath)
    if let listing = storefront?.borrowListing(listingResourceID: listingResourceID) ?? nil {
        return ListingData(listingResourceID: listingResourceID, seller: address, details: listing.getDetails())
    }
    return nil
}
