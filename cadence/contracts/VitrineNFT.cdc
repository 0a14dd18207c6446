import "NonFungibleToken"
import "MetadataViews"
import "ViewResolver"

/// VitrineNFT: the collectibles sold on Vitrine.
///
/// Every token is one edition of a blueprint (an NFT template made by a creator): it records the
/// blueprint's id, its edition number (`serialNumber`) and a string map of metadata (name,
/// description, image, ...). Only the holder of the `Minter`, kept in the deploying account, can
/// create tokens, and each (blueprintId, serialNumber) pair can be minted once, so a retried mint
/// can never produce a second copy of the same edition.
access(all) contract VitrineNFT: NonFungibleToken {

    /// Tokens minted so far; also the source of token ids (1, 2, 3, ...).
    access(all) var totalSupply: UInt64

    /// blueprintId -> serialNumber -> token id, for every edition minted.
    access(contract) let editions: {UInt64: {UInt64: UInt64}}

    access(all) event Minted(id: UInt64, blueprintId: UInt64, serialNumber: UInt64, to: Address?)

    access(all) let CollectionStoragePath: StoragePath
    access(all) let CollectionPublicPath: PublicPath
    access(all) let MinterStoragePath: StoragePath

    access(all) resource NFT: NonFungibleToken.NFT {
        access(all) let id: UInt64
        access(all) let blueprintId: UInt64
        access(all) let serialNumber: UInt64
        access(all) let metadata: {String: String}
        access(self) let royalties: [MetadataViews.Royalty]

        init(
            id: UInt64,
            blueprintId: UInt64,
            serialNumber: UInt64,
            metadata: {String: String},
            royalties: [MetadataViews.Royalty]
        ) {
            self.id = id
            self.blueprintId = blueprintId
            self.serialNumber = serialNumber
            self.metadata = metadata
            self.royalties = royalties
        }

        /// A copy of the metadata map.
        access(all) view fun getMetadata(): {String: String} {
            return self.metadata
        }

        access(all) fun createEmptyCollection(): @{NonFungibleToken.Collection} {
            return <- VitrineNFT.createEmptyCollection(nftType: Type<@VitrineNFT.NFT>())
        }

        access(all) view fun getViews(): [Type] {
            return [
                Type<MetadataViews.Display>(),
                Type<MetadataViews.Serial>(),
                Type<MetadataViews.Editions>(),
                Type<MetadataViews.Royalties>(),
                Type<MetadataViews.ExternalURL>(),
                Type<MetadataViews.NFTCollectionData>(),
                Type<MetadataViews.NFTCollectionDisplay>()
            ]
        }

        access(all) fun resolveView(_ view: Type): AnyStruct? {
            switch view {
                case Type<MetadataViews.Display>():
                    let fallbackName = "Vitrine #".concat(self.blueprintId.toString()).concat("-").concat(self.serialNumber.toString())
                    return MetadataViews.Display(
                        name: self.metadata["name"] ?? fallbackName,
                        description: self.metadata["description"] ?? "",
                        thumbnail: MetadataViews.HTTPFile(url: self.metadata["image"] ?? "")
                    )
                case Type<MetadataViews.Serial>():
                    // Serial must be unique within the collection: the token id is; the edition
                    // number is unique only within its blueprint and is given by Editions.
                    return MetadataViews.Serial(self.id)
                case Type<MetadataViews.Editions>():
                    let edition = MetadataViews.Edition(
                        name: "Blueprint ".concat(self.blueprintId.toString()),
                        number: self.serialNumber,
                        max: UInt64.fromString(self.metadata["editionSize"] ?? "")
                    )
                    return MetadataViews.Editions([edition])
                case Type<MetadataViews.Royalties>():
                    return MetadataViews.Royalties(self.royalties)
                case Type<MetadataViews.ExternalURL>():
                    return MetadataViews.ExternalURL(self.metadata["externalUrl"] ?? "")
            }
            return VitrineNFT.resolveContractView(resourceType: Type<@VitrineNFT.NFT>(), viewType: view)
        }
    }

    access(all) resource Collection: NonFungibleToken.Collection {
        access(all) var ownedNFTs: @{UInt64: {NonFungibleToken.NFT}}

        init() {
            self.ownedNFTs <- {}
        }

        access(all) view fun getSupportedNFTTypes(): {Type: Bool} {
            return {Type<@VitrineNFT.NFT>(): true}
        }

        access(all) view fun isSupportedNFTType(type: Type): Bool {
            return type == Type<@VitrineNFT.NFT>()
        }

        access(NonFungibleToken.Withdraw) fun withdraw(withdrawID: UInt64): @{NonFungibleToken.NFT} {
            let token <- self.ownedNFTs.remove(key: withdrawID)
                ?? panic("VitrineNFT.Collection.withdraw: this collection holds no NFT with id ".concat(withdrawID.toString()))
            return <- token
        }

        access(all) fun deposit(token: @{NonFungibleToken.NFT}) {
            let nft <- token as! @VitrineNFT.NFT
            let replaced <- self.ownedNFTs[nft.id] <- nft
            destroy replaced
        }

        access(all) view fun getIDs(): [UInt64] {
            return self.ownedNFTs.keys
        }

        access(all) view fun getLength(): Int {
            return self.ownedNFTs.length
        }

        access(all) view fun borrowNFT(_ id: UInt64): &{NonFungibleToken.NFT}? {
            return &self.ownedNFTs[id]
        }

        /// A typed reference, for reading blueprintId, serialNumber and metadata.
        access(all) view fun borrowVitrineNFT(_ id: UInt64): &VitrineNFT.NFT? {
            if let nft = &self.ownedNFTs[id] as &{NonFungibleToken.NFT}? {
                return nft as! &VitrineNFT.NFT
            }
            return nil
        }

        access(all) view fun borrowViewResolver(id: UInt64): &{ViewResolver.Resolver}? {
            if let nft = &self.ownedNFTs[id] as &{NonFungibleToken.NFT}? {
                return nft as &{ViewResolver.Resolver}
            }
            return nil
        }

        access(all) fun createEmptyCollection(): @{NonFungibleToken.Collection} {
            return <- VitrineNFT.createEmptyCollection(nftType: Type<@VitrineNFT.NFT>())
        }
    }

    access(all) fun createEmptyCollection(nftType: Type): @{NonFungibleToken.Collection} {
        return <- create Collection()
    }

    /// The token id minted for an edition, or nil if that edition has not been minted.
    access(all) view fun editionTokenId(blueprintId: UInt64, serialNumber: UInt64): UInt64? {
        if let serials = self.editions[blueprintId] {
            return serials[serialNumber]
        }
        return nil
    }

    /// Held by the deploying account only.
    access(all) resource Minter {
        access(all) fun mint(
            recipient: &{NonFungibleToken.Receiver},
            blueprintId: UInt64,
            serialNumber: UInt64,
            metadata: {String: String},
            royalties: [MetadataViews.Royalty]
        ): UInt64 {
            pre {
                VitrineNFT.editionTokenId(blueprintId: blueprintId, serialNumber: serialNumber) == nil:
                    "VitrineNFT.Minter.mint: edition ".concat(serialNumber.toString())
                        .concat(" of blueprint ").concat(blueprintId.toString()).concat(" is already minted")
            }
            let id = VitrineNFT.totalSupply + 1
            VitrineNFT.totalSupply = id
            if VitrineNFT.editions[blueprintId] == nil {
                VitrineNFT.editions[blueprintId] = {}
            }
            VitrineNFT.editions[blueprintId]!.insert(key: serialNumber, id)

            let nft <- create NFT(
                id: id,
                blueprintId: blueprintId,
                serialNumber: serialNumber,
                metadata: metadata,
                royalties: royalties
            )
            emit Minted(id: id, blueprintId: blueprintId, serialNumber: serialNumber, to: recipient.owner?.address)
            recipient.deposit(token: <- nft)
            return id
        }
    }

    access(all) view fun getContractViews(resourceType: Type?): [Type] {
        return [Type<MetadataViews.NFTCollectionData>(), Type<MetadataViews.NFTCollectionDisplay>()]
    }

    access(all) fun resolveContractView(resourceType: Type?, viewType: Type): AnyStruct? {
        switch viewType {
            case Type<MetadataViews.NFTCollectionData>():
                return MetadataViews.NFTCollectionData(
                    storagePath: self.CollectionStoragePath,
                    publicPath: self.CollectionPublicPath,
                    publicCollection: Type<&VitrineNFT.Collection>(),
                    publicLinkedType: Type<&VitrineNFT.Collection>(),
                    createEmptyCollectionFunction: (fun(): @{NonFungibleToken.Collection} {
                        return <- VitrineNFT.createEmptyCollection(nftType: Type<@VitrineNFT.NFT>())
                    })
                )
            case Type<MetadataViews.NFTCollectionDisplay>():
                let logo = MetadataViews.Media(
                    file: MetadataViews.HTTPFile(url: "https://vitrine.example/logo.svg"),
                    mediaType: "image/svg+xml"
                )
                return MetadataViews.NFTCollectionDisplay(
                    name: "Vitrine",
                    description: "Collectibles minted by creators' storefronts on Vitrine.",
                    externalURL: MetadataViews.ExternalURL("https://vitrine.example"),
                    squareImage: logo,
                    bannerImage: logo,
                    socials: {}
                )
        }
        return nil
    }

    init() {
        self.totalSupply = 0
        self.editions = {}
        self.CollectionStoragePath = /storage/vitrineNFTCollection
        self.CollectionPublicPath = /public/vitrineNFTCollection
        self.MinterStoragePath = /storage/vitrineNFTMinter

        self.account.storage.save(<- create Minter(), to: self.MinterStoragePath)
    }
}
