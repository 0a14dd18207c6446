import "VitrineNFT"

/// Whether `address` holds the VitrineNFT `id`.
access(all) fun main(address: Address, id: UInt64): Bool {
    let collection = getAccount(address).capabilities.borrow<&VitrineNFT.Collection>(VitrineNFT.CollectionPublicPath)
    return collection?.borrowNFT(id) != nil
}
