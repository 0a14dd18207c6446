import "VitrineBlueprints"

/// Admin: registers several blueprints at once (the seeded world), each as register_blueprint does.
transaction(ids: [UInt64], maxEditions: [UInt64], prices: [UFix64], royalties: [UFix64]) {
    let registrar: &VitrineBlueprints.Registrar

    prepare(admin: auth(BorrowValue) &Account) {
        pre {
            ids.length == maxEditions.length && ids.length == prices.length && ids.length == royalties.length:
                "register_blueprints: the arrays must have the same length"
        }
        self.registrar = admin.storage.borrow<&VitrineBlueprints.Registrar>(from: VitrineBlueprints.RegistrarStoragePath)
            ?? panic("register_blueprints: the signer holds no VitrineBlueprints.Registrar")
    }

    execute {
        var i = 0
        while i < ids.length {
            self.registrar.register(id: ids[i], maxEditions: maxEditions[i], price: prices[i], royalty: royalties[i], metadata: {})
            i = i + 1
        }
    }
}
