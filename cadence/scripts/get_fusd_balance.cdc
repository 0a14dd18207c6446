import "FungibleToken"
import "FUSD"

/// The FUSD balance of `address`; 0.0 when the account has no FUSD vault.
access(all) fun main(address: Address): UFix64 {
    return getAccount(address).capabilities.borrow<&{FungibleToken.Balance}>(FUSD.BalancePublicPath)?.balance ?? 0.0
}
