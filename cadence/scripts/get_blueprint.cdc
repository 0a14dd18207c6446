import "VitrineBlueprints"

/// The registration of blueprint `id`, or nil when it was never registered.
access(all) fun main(id: UInt64): VitrineBlueprints.Blueprint? {
    return VitrineBlueprints.blueprint(id: id)
}
