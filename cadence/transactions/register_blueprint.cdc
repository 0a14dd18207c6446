import "VitrineBlueprints"

/// Admin: registers blueprint `id` for sale with `maxEditions` editions at `price` FUSD and a
/// creator royalty cut. Registering the same blueprint again with the same terms changes nothing.
transaction(id: UInt64, maxEditions: UInt64, price: UFix64, royalty: UFix64, metadata: {String: String}) {
    let registrar: &VitrineBlueprints.Registrar

    prepare(admin: auth(BorrowValue) &Account) {
        self.registrar = admin.storage.borrow<&VitrineBlueprints.Registrar>(from: VitrineBlueprints.RegistrarStoragePath)
            ?? panic("register_blueprint: the signer holds no VitrineBlueprints.Registrar")
    }

    execute {
        self.registrar.register(id: id, maxEditions: maxEditions, price: price, royalty: royalty, metadata: metadata)
    }
}
