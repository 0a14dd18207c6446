import "NonFungibleToken"
import "FungibleToken"
import "VitrineNFT"
import "FUSD"

/// Development and benchmark helper: `count` new accounts paid for by the signer, each already set
/// up as setup_account.cdc would (a VitrineNFT collection and an FUSD vault with their public
/// capabilities). The accounts have no keys: they receive editions and funds but sign nothing.
/// Their addresses are in the flow.AccountCreated events.
transaction(count: Int) {
    prepare(payer: auth(BorrowValue) &Account) {
        var i = 0
        while i < count {
            let account = Account(payer: payer)
            account.storage.save(
                <- VitrineNFT.createEmptyCollection(nftType: Type<@VitrineNFT.NFT>()),
                to: VitrineNFT.CollectionStoragePath
            )
            account.capabilities.publish(
                account.capabilities.storage.issue<&VitrineNFT.Collection>(VitrineNFT.CollectionStoragePath),
                at: VitrineNFT.CollectionPublicPath
            )
            account.storage.save(<- FUSD.createEmptyVault(vaultType: Type<@FUSD.Vault>()), to: FUSD.VaultStoragePath)
            account.capabilities.publish(
                account.capabilities.storage.issue<&FUSD.Vault>(FUSD.VaultStoragePath),
                at: FUSD.ReceiverPublicPath
            )
            account.capabilities.publish(
                account.capabilities.storage.issue<&FUSD.Vault>(FUSD.VaultStoragePath),
                at: FUSD.BalancePublicPath
            )
            i = i + 1
        }
    }
}
