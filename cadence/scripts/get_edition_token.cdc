import "VitrineNFT"

/// The token id minted for edition `serialNumber` of blueprint `blueprintId`, or nil.
access(all) fun main(blueprintId: UInt64, serialNumber: UInt64): UInt64? {
    return VitrineNFT.editionTokenId(blueprintId: blueprintId, serialNumber: serialNumber)
}
