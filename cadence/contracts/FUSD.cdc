import "FungibleToken"
import "MetadataViews"
import "FungibleTokenMetadataViews"

/// FUSD: Vitrine's US-dollar stablecoin balance (SPEC §1 "a fiat-stablecoin (FUSD) wallet balance").
///
/// The upstream FUSD contract is deprecated; this is a FungibleToken (V2 standard) of our own with
/// the same storage and public paths, so wallets that knew FUSD find the vault where they expect it.
/// One token is one US dollar. Only the `Administrator` kept in the deploying account can mint.
access(all) contract FUSD: FungibleToken {

    access(all) var totalSupply: UFix64

    access(all) event TokensMinted(amount: UFix64)

    access(all) let VaultStoragePath: StoragePath
    access(all) let ReceiverPublicPath: PublicPath
    access(all) let BalancePublicPath: PublicPath
    access(all) let AdminStoragePath: StoragePath

    access(all) resource Vault: FungibleToken.Vault {
        access(all) var balance: UFix64

        init(balance: UFix64) {
            self.balance = balance
        }

        /// Called by Burner.burn: the burnt balance leaves the supply.
        access(contract) fun burnCallback() {
            FUSD.totalSupply = FUSD.totalSupply - self.balance
            self.balance = 0.0
        }

        access(all) view fun getSupportedVaultTypes(): {Type: Bool} {
            return {self.getType(): true}
        }

        access(all) view fun isSupportedVaultType(type: Type): Bool {
            return type == self.getType()
        }

        access(all) view fun isAvailableToWithdraw(amount: UFix64): Bool {
            return amount <= self.balance
        }

        /// The FungibleToken interface refuses amounts above the balance before this runs.
        access(FungibleToken.Withdraw) fun withdraw(amount: UFix64): @{FungibleToken.Vault} {
            self.balance = self.balance - amount
            return <- create Vault(balance: amount)
        }

        access(all) fun deposit(from: @{FungibleToken.Vault}) {
            let incoming <- from as! @FUSD.Vault
            self.balance = self.balance + incoming.balance
            incoming.balance = 0.0
            destroy incoming
        }

        access(all) fun createEmptyVault(): @{FungibleToken.Vault} {
            return <- create Vault(balance: 0.0)
        }

        access(all) view fun getViews(): [Type] {
            return FUSD.getContractViews(resourceType: nil)
        }

        access(all) fun resolveView(_ view: Type): AnyStruct? {
            return FUSD.resolveContractView(resourceType: nil, viewType: view)
        }
    }

    access(all) fun createEmptyVault(vaultType: Type): @FUSD.Vault {
        return <- create Vault(balance: 0.0)
    }

    access(all) view fun getContractViews(resourceType: Type?): [Type] {
        return [
            Type<FungibleTokenMetadataViews.FTView>(),
            Type<FungibleTokenMetadataViews.FTDisplay>(),
            Type<FungibleTokenMetadataViews.FTVaultData>(),
            Type<FungibleTokenMetadataViews.TotalSupply>()
        ]
    }

    access(all) fun resolveContractView(resourceType: Type?, viewType: Type): AnyStruct? {
        switch viewType {
            case Type<FungibleTokenMetadataViews.FTView>():
                return FungibleTokenMetadataViews.FTView(
                    ftDisplay: self.resolveContractView(resourceType: nil, viewType: Type<FungibleTokenMetadataViews.FTDisplay>()) as! FungibleTokenMetadataViews.FTDisplay?,
                    ftVaultData: self.resolveContractView(resourceType: nil, viewType: Type<FungibleTokenMetadataViews.FTVaultData>()) as! FungibleTokenMetadataViews.FTVaultData?
                )
            case Type<FungibleTokenMetadataViews.FTDisplay>():
                let logo = MetadataViews.Media(
                    file: MetadataViews.HTTPFile(url: "https://vitrine.example/fusd.svg"),
                    mediaType: "image/svg+xml"
                )
                return FungibleTokenMetadataViews.FTDisplay(
                    name: "Flow USD",
                    symbol: "FUSD",
                    description: "A US-dollar stablecoin balance for buying on Vitrine.",
                    externalURL: MetadataViews.ExternalURL("https://vitrine.example"),
                    logos: MetadataViews.Medias([logo]),
                    socials: {}
                )
            case Type<FungibleTokenMetadataViews.FTVaultData>():
                return FungibleTokenMetadataViews.FTVaultData(
                    storagePath: self.VaultStoragePath,
                    receiverPath: self.ReceiverPublicPath,
                    metadataPath: self.BalancePublicPath,
                    receiverLinkedType: Type<&FUSD.Vault>(),
                    metadataLinkedType: Type<&FUSD.Vault>(),
                    createEmptyVaultFunction: (fun(): @{FungibleToken.Vault} {
                        return <- FUSD.createEmptyVault(vaultType: Type<@FUSD.Vault>())
                    })
                )
            case Type<FungibleTokenMetadataViews.TotalSupply>():
                return FungibleTokenMetadataViews.TotalSupply(totalSupply: self.totalSupply)
        }
        return nil
    }

    /// Held by the deploying account only.
    access(all) resource Administrator {
        access(all) fun mintTokens(amount: UFix64): @FUSD.Vault {
            pre {
                amount > 0.0: "FUSD.Administrator.mintTokens: the amount must be positive"
            }
            FUSD.totalSupply = FUSD.totalSupply + amount
            emit TokensMinted(amount: amount)
            return <- create Vault(balance: amount)
        }
    }

    init() {
        self.totalSupply = 0.0
        self.VaultStoragePath = /storage/fusdVault
        self.ReceiverPublicPath = /public/fusdReceiver
        self.BalancePublicPath = /public/fusdBalance
        self.AdminStoragePath = /storage/fusdAdmin

        self.account.storage.save(<- create Administrator(), to: self.AdminStoragePath)
    }
}
