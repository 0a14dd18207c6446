import "NonFungibleToken"
import "FungibleToken"
import "NFTStorefrontV2"
import "VitrineNFT"
import "FUSD"
import "MetadataViews"

/// Lists the signer's VitrineNFT `nftID` for sale on NFTStorefrontV2 at `price` FUSD.
///
/// The price is split into sale cuts paid into FUSD vaults: each royalty the NFT itself carries
/// (its MetadataViews.Royalties, set at mint from the blueprint's royaltyPercent) takes its cut of
/// the price, the platform takes `platformFeeRate` of it (the blueprint's totalFeePercent as a
/// fraction) at `platformAddress`, and the seller gets the rest. Vitrine's fixed terms (SPEC §9): no
/// commission, expiry 4102444800 (seconds; the spec's 4102444800000 ms) and the custom id "vitrine".
/// A storefront is created for the signer if it has none.
transaction(
    nftID: UInt64,
    price: UFix64,
    platformAddress: Address?,
    platformFeeRate: UFix64
) {
    let storefront: auth(NFTStorefrontV2.CreateListing) &NFTStorefrontV2.Storefront
    let provider: Capability<auth(NonFungibleToken.Withdraw) &{NonFungibleToken.Collection}>
    let saleCuts: [NFTStorefrontV2.SaleCut]

    prepare(seller: auth(BorrowValue, SaveValue, IssueStorageCapabilityController, PublishCapability, StorageCapabilities) &Account) {
        assert(price > 0.0, message: "create_listing: the price must be positive")
        assert(platformFeeRate < 1.0, message: "create_listing: the platform fee rate must be below 1")
        assert(platformFeeRate == 0.0 || platformAddress != nil, message: "create_listing: a platform fee needs a platform address")

        if seller.storage.borrow<&NFTStorefrontV2.Storefront>(from: NFTStorefrontV2.StorefrontStoragePath) == nil {
            seller.storage.save(<- NFTStorefrontV2.createStorefront(), to: NFTStorefrontV2.StorefrontStoragePath)
            seller.capabilities.publish(
                seller.capabilities.storage.issue<&{NFTStorefrontV2.StorefrontPublic}>(NFTStorefrontV2.StorefrontStoragePath),
                at: NFTStorefrontV2.StorefrontPublicPath
            )
        }
        self.storefront = seller.storage.borrow<auth(NFTStorefrontV2.CreateListing) &NFTStorefrontV2.Storefront>(from: NFTStorefrontV2.StorefrontStoragePath)
            ?? panic("create_listing: cannot borrow the seller's storefront")

        // Reuse the withdraw capability issued by an earlier listing instead of issuing one per listing.
        var found: Capability<auth(NonFungibleToken.Withdraw) &{NonFungibleToken.Collection}>? = nil
        for controller in seller.capabilities.storage.getControllers(forPath: VitrineNFT.CollectionStoragePath) {
            if controller.borrowType == Type<auth(NonFungibleToken.Withdraw) &{NonFungibleToken.Collection}>() {
                found = controller.capability as! Capability<auth(NonFungibleToken.Withdraw) &{NonFungibleToken.Collection}>
                break
            }
        }
        self.provider = found
            ?? seller.capabilities.storage.issue<auth(NonFungibleToken.Withdraw) &{NonFungibleToken.Collection}>(VitrineNFT.CollectionStoragePath)
        assert(self.provider.check(), message: "create_listing: the seller has no VitrineNFT collection")

        let sellerReceiver = seller.capabilities.get<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath)
        assert(sellerReceiver.check(), message: "create_listing: the seller has no FUSD vault (run account setup first)")
        let collection = seller.storage.borrow<&VitrineNFT.Collection>(from: VitrineNFT.CollectionStoragePath)
            ?? panic("create_listing: the seller has no VitrineNFT collection")
        let nft = collection.borrowNFT(nftID)
            ?? panic("create_listing: the seller does not hold NFT ".concat(nftID.toString()))
        let cuts: [NFTStorefrontV2.SaleCut] = []
        var sellerAmount = price
        if let royalties = nft.resolveView(Type<MetadataViews.Royalties>()) as! MetadataViews.Royalties? {
            for royalty in royalties.getRoyalties() {
                assert(royalty.receiver.check(), message: "create_listing: a royalty receiver has no FUSD vault")
                let amount = price * royalty.cut
                if amount > 0.0 {
                    cuts.append(NFTStorefrontV2.SaleCut(receiver: royalty.receiver, amount: amount))
                    sellerAmount = sellerAmount - amount
                }
            }
        }
        let platformFee = price * platformFeeRate
        if platformFee > 0.0 {
            let receiver = getAccount(platformAddress!).capabilities.get<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath)
            assert(receiver.check(), message: "create_listing: the platform address has no FUSD vault")
            cuts.append(NFTStorefrontV2.SaleCut(receiver: receiver, amount: platformFee))
            sellerAmount = sellerAmount - platformFee
        }
        assert(sellerAmount > 0.0, message: "create_listing: royalties and platform fee leave nothing for the seller")
        cuts.insert(at: 0, NFTStorefrontV2.SaleCut(receiver: sellerReceiver, amount: sellerAmount))
        self.saleCuts = cuts
    }

    execute {
        self.storefront.createListing(
            nftProviderCapability: self.provider,
            nftType: Type<@VitrineNFT.NFT>(),
            nftID: nftID,
            salePaymentVaultType: Type<@FUSD.Vault>(),
            saleCuts: self.saleCuts,
            marketplacesCapability: nil,
            customID: "vitrine",
            commissionAmount: 0.0,
            expiry: 4102444800
        )
    }
}
