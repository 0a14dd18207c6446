import "VitrineNFT"

access(all) struct VitrineNFTData {
    access(all) let id: UInt64
    access(all) let blueprintId: UInt64
    access(all) let serialNumber: UInt64
    access(all) let metadata: {String: String}
    access(all) let owner: Address

    init(id: UInt64, blueprintId: UInt64, serialNumber: UInt64, metadata: {String: String}, owner: Address) {
        self.id = id
        self.blueprintId = blueprintId
        self.serialNumber = serialNumber
        self.metadata = metadata
        self.owner = owner
    }
}

/// The VitrineNFTs that `address` holds, with blueprintId, serialNumber and metadata.
/// `ids` narrows the answer to those ids (ids the account does not hold are left out); nil means all.
access(all) fun main(address: Address, ids: [UInt64]?): [VitrineNFTData] {
    let collection = getAccount(address).capabilities.borrow<&VitrineNFT.Collection>(VitrineNFT.CollectionPublicPath)
    if collection == nil {
        return []
    }
    let wanted = ids ?? collection!.getIDs()
    let found: [VitrineNFTData] = []
    for id in wanted {
        if let nft = collection!.borrowVitrineNFT(id) {
            found.append(VitrineNFTData(
                id: nft.id,
                blueprintId: nft.blueprintId,
                serialNumber: nft.serialNumber,
                metadata: nft.getMetadata(),
                owner: address
            ))
        }
    }
    return found
}
