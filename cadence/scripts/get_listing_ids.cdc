import "NFTStorefrontV2"

/// The listing resource ids in the NFTStorefrontV2 storefront of `address` (empty without one).
access(all) fun main(address: Address): [UInt64] {
    let storefront = getAccount(address).capabilities.borrow<&{NFTStorefrontV2.StorefrontPublic}>(NFTStorefrontV2.StorefrontPublicPath)
    return storefront?.getListingIDs() ?? []
}
