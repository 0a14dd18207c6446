import "NonFungibleToken"
import "FungibleToken"
import "MetadataViews"
import "VitrineNFT"
import "FUSD"

/// Admin: mints edition `serialNumber` of blueprint `blueprintId` into the collection of `recipient`.
/// `royalties` maps receiver addresses to cuts (0.05 is 5%), paid into their FUSD vaults.
/// Fails when the recipient has no VitrineNFT collection or the edition is already minted.
transaction(
    recipient: Address,
    blueprintId: UInt64,
    serialNumber: UInt64,
    metadata: {String: String},
    royalties: {Address: UFix64}
) {
    let minter: &VitrineNFT.Minter
    let receiver: &{NonFungibleToken.Receiver}

    prepare(admin: auth(BorrowValue) &Account) {
        self.minter = admin.storage.borrow<&VitrineNFT.Minter>(from: VitrineNFT.MinterStoragePath)
            ?? panic("mint_nft: the signer holds no VitrineNFT.Minter")
        self.receiver = getAccount(recipient).capabilities.borrow<&{NonFungibleToken.Receiver}>(VitrineNFT.CollectionPublicPath)
            ?? panic("mint_nft: ".concat(recipient.toString()).concat(" has no VitrineNFT collection (run account setup first)"))
    }

    execute {
        let cuts: [MetadataViews.Royalty] = []
        for receiver in royalties.keys {
            cuts.append(MetadataViews.Royalty(
                receiver: getAccount(receiver).capabilities.get<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath),
                cut: royalties[receiver]!,
                description: "creator royalty"
            ))
        }
        self.minter.mint(
            recipient: self.receiver,
            blueprintId: blueprintId,
            serialNumber: serialNumber,
            metadata: metadata,
            royalties: cuts
        )
    }
}
