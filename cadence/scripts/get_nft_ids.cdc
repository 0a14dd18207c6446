import "VitrineNFT"

/// The ids of the VitrineNFTs that `address` holds (empty without a collection).
access(all) fun main(address: Address): [UInt64] {
    let collection = getAccount(address).capabilities.borrow<&VitrineNFT.Collection>(VitrineNFT.CollectionPublicPath)
    return collection?.getIDs() ?? []
}
