import "NonFungibleToken"
import "VitrineNFT"

/// Moves the VitrineNFTs `ids` from the signer's collection to the collection of `to`, all or none.
transaction(to: Address, ids: [UInt64]) {
    let collection: auth(NonFungibleToken.Withdraw) &VitrineNFT.Collection
    let receiver: &{NonFungibleToken.Receiver}

    prepare(signer: auth(BorrowValue) &Account) {
        self.collection = signer.storage.borrow<auth(NonFungibleToken.Withdraw) &VitrineNFT.Collection>(from: VitrineNFT.CollectionStoragePath)
            ?? panic("transfer_nfts: the signer has no VitrineNFT collection")
        self.receiver = getAccount(to).capabilities.borrow<&{NonFungibleToken.Receiver}>(VitrineNFT.CollectionPublicPath)
            ?? panic("transfer_nfts: ".concat(to.toString()).concat(" has no VitrineNFT collection"))
    }

    execute {
        for id in ids {
            self.receiver.deposit(token: <- self.collection.withdraw(withdrawID: id))
        }
    }
}
