import "NFTStorefrontV2"

/// Removes the listing `listingResourceID` from the signer's NFTStorefrontV2 storefront.
transaction(listingResourceID: UInt64) {
    let storefront: auth(NFTStorefrontV2.RemoveListing) &NFTStorefrontV2.Storefront

    prepare(seller: auth(BorrowValue) &Account) {
        self.storefront = seller.storage.borrow<auth(NFTStorefrontV2.RemoveListing) &NFTStorefrontV2.Storefront>(from: NFTStorefrontV2.StorefrontStoragePath)
            ?? panic("remove_listing: the signer has no storefront")
    }

    execute {
        self.storefront.removeListing(listingResourceID: listingResourceID)
    }
}
