import "VitrineBlueprints"

/// Admin: closes blueprint `id` (a canceled sale): no edition of it is sold any more.
transaction(id: UInt64) {
    let registrar: &VitrineBlueprints.Registrar

    prepare(admin: auth(BorrowValue) &Account) {
        self.registrar = admin.storage.borrow<&VitrineBlueprints.Registrar>(from: VitrineBlueprints.RegistrarStoragePath)
            ?? panic("close_blueprint: the signer holds no VitrineBlueprints.Registrar")
    }

    execute {
        self.registrar.close(id: id)
    }
}
