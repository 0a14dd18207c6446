import "NonFungibleToken"
import "FungibleToken"
import "VitrineNFT"
import "FUSD"

/// Sets the signer up for Vitrine: a VitrineNFT collection and an FUSD vault, each with its public
/// capability. Safe to run again: what exists is kept, and missing or broken capabilities are
/// published anew.
transaction {
    prepare(signer: auth(BorrowValue, SaveValue, IssueStorageCapabilityController, PublishCapability, UnpublishCapability) &Account) {
        if signer.storage.borrow<&VitrineNFT.Collection>(from: VitrineNFT.CollectionStoragePath) == nil {
            signer.storage.save(
                <- VitrineNFT.createEmptyCollection(nftType: Type<@VitrineNFT.NFT>()),
                to: VitrineNFT.CollectionStoragePath
            )
        }
        if !signer.capabilities.get<&VitrineNFT.Collection>(VitrineNFT.CollectionPublicPath).check() {
            signer.capabilities.unpublish(VitrineNFT.CollectionPublicPath)
            signer.capabilities.publish(
                signer.capabilities.storage.issue<&VitrineNFT.Collection>(VitrineNFT.CollectionStoragePath),
                at: VitrineNFT.CollectionPublicPath
            )
        }

        if signer.storage.borrow<&FUSD.Vault>(from: FUSD.VaultStoragePath) == nil {
            signer.storage.save(<- FUSD.createEmptyVault(vaultType: Type<@FUSD.Vault>()), to: FUSD.VaultStoragePath)
        }
        if !signer.capabilities.get<&FUSD.Vault>(FUSD.ReceiverPublicPath).check() {
            signer.capabilities.unpublish(FUSD.ReceiverPublicPath)
            signer.capabilities.publish(
                signer.capabilities.storage.issue<&FUSD.Vault>(FUSD.VaultStoragePath),
                at: FUSD.ReceiverPublicPath
            )
        }
        if !signer.capabilities.get<&FUSD.Vault>(FUSD.BalancePublicPath).check() {
            signer.capabilities.unpublish(FUSD.BalancePublicPath)
            signer.capabilities.publish(
                signer.capabilities.storage.issue<&FUSD.Vault>(FUSD.VaultStoragePath),
                at: FUSD.BalancePublicPath
            )
        }
    }
}
