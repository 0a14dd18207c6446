import "NonFungibleToken"
import "FungibleToken"
import "NFTStorefrontV2"
import "VitrineNFT"
import "FUSD"

/// Buys the listing `listingResourceID` of the storefront at `storefrontAddress`, paying its price
/// from the signer's FUSD vault; the NFT goes into the signer's VitrineNFT collection (set up here if
/// missing). The purchased listing is then cleaned out of the storefront.
transaction(storefrontAddress: Address, listingResourceID: UInt64) {
    let payment: @{FungibleToken.Vault}
    let collection: &{NonFungibleToken.Receiver}
    let storefront: &{NFTStorefrontV2.StorefrontPublic}
    let listing: &{NFTStorefrontV2.ListingPublic}

    prepare(buyer: auth(BorrowValue, SaveValue, IssueStorageCapabilityController, PublishCapability) &Account) {
        self.storefront = getAccount(storefrontAddress).capabilities.borrow<&{NFTStorefrontV2.StorefrontPublic}>(NFTStorefrontV2.StorefrontPublicPath)
            ?? panic("buy_listing: ".concat(storefrontAddress.toString()).concat(" has no storefront"))
        self.listing = self.storefront.borrowListing(listingResourceID: listingResourceID)
            ?? panic("buy_listing: no listing ".concat(listingResourceID.toString()).concat(" in that storefront"))
        let price = self.listing.getDetails().salePrice

        let vault = buyer.storage.borrow<auth(FungibleToken.Withdraw) &FUSD.Vault>(from: FUSD.VaultStoragePath)
            ?? panic("buy_listing: the buyer has no FUSD vault")
        self.payment <- vault.withdraw(amount: price)

        if buyer.storage.borrow<&VitrineNFT.Collection>(from: VitrineNFT.CollectionStoragePath) == nil {
            buyer.storage.save(<- VitrineNFT.createEmptyCollection(nftType: Type<@VitrineNFT.NFT>()), to: VitrineNFT.CollectionStoragePath)
            buyer.capabilities.publish(
                buyer.capabilities.storage.issue<&VitrineNFT.Collection>(VitrineNFT.CollectionStoragePath),
                at: VitrineNFT.CollectionPublicPath
            )
        }
        self.collection = buyer.storage.borrow<&VitrineNFT.Collection>(from: VitrineNFT.CollectionStoragePath)!
    }

    execute {
        let nft <- self.listing.purchase(payment: <- self.payment, commissionRecipient: nil)
        self.collection.deposit(token: <- nft)
        self.storefront.cleanupPurchasedListings(listingResourceID: listingResourceID)
    }
}
